// expect 5:8: expected `:` after the var
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
variant, x: ;
