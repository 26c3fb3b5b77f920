// expect 7:17: expected a set type in `(*)`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type M = {a} -> {a};
var m: M = { :a };
begin, end: m = M(*);
