// expect 4:1: expected a path of edges from `begin` to `end`
type Player = {x};
type Score = {0};
begin, a: player = keeper;
b, end: ;
