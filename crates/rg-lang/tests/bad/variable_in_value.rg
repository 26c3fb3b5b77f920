// expect 7:12: found the symbol `v`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a};
var v: T = a;
var w: T = v;
