// expect 6:20: expected a value castable to `Player`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
var v: {a} = a;
begin, end: Player(v) == x;
