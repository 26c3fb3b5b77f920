// expect 5:9: expected `=`, `==` or `!=` after the expression
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
a, b: x -> y;
