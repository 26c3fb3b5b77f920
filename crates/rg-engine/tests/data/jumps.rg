// A ring of six squares where a piece on `pos` steps or jumps over pieces
// (`two` and `back`, two squares either way) as often as it likes: the jump
// chain `j -> q2 -> j` is a cycle of checked choice nodes, after one choice
// `p` (the start square, told apart by its tag). Shared by rg-engine's
// tests/semantics.rs and rg-jit's tests/random_games.rs.
type Player = {x, y};
type Score = {0, 1};
type V = {0, 1, 2, 3, 4, 5};
type P = {e, w};
var pos: V = 0;
var board: V -> P = { 0: w, 1: w, 3: w, :e };
const next: V -> V = { 0: 1, 1: 2, 2: 3, 3: 4, 4: 5, :0 };
const two: V -> V = { 0: 2, 1: 3, 2: 4, 3: 5, 4: 0, :1 };
const back: V -> V = { 0: 4, 1: 5, 2: 0, 3: 1, 4: 2, :3 };
begin, s: player = x;
s, a: pos = V(*);
a, b: board[pos] == w;
b, p: $$ pos;
p, q: pos = next[pos];
p, j: board[next[pos]] != e;
j, q2: pos = two[pos];
j, q2: pos = back[pos];
q2, j: board[next[pos]] != e;
q2, r: $$ pos;
q, r: $$ pos;
r, k: player = keeper;
k, end: ;
