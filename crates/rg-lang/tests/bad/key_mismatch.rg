// expect 6:15: expected a key of type {a}
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
var m: {a} -> {b} = { :b };
begin, end: m[b] == b;
