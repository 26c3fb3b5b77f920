// expect 7:15: found whitespace before `[`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a};
var m: T -> T = { :a };
begin, end: m [a] = a;
