// expect 1:1: expected a value of type {0, 5}, found the symbol `1`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type Bool = {0, 5};
