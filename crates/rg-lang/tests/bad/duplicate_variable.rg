// expect 7:5: found the variable `v` defined twice
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a};
var v: T = a;
var v: T = a;
