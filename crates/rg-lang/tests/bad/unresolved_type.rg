// expect 5:8: expected a type, found `Foo`, which is not defined
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
var v: Foo = a;
