// expect 5:11: expected a symbol (a set type has at least one)
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {};
