// expect 5:17: found `Foo`, which is not defined
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a} -> Foo;
