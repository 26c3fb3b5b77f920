// expect 6:17: found `Foo`, which is not defined
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
var v: {a} = a;
begin, end: v = Foo(*);
