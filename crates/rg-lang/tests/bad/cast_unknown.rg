// expect 5:13: found `Foo`, which is not defined
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
begin, end: Foo(x) == x;
