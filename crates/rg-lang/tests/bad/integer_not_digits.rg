// expect 5:10: expected a number, found `x`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
@integer x: a;
