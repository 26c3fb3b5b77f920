// expect 5:31: found `a` twice
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
const c: {a} -> {b} = { a: b, a: b, :b };
