// expect 6:18: expected a value comparable with type {a}
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
var v: {a} = a;
begin, end: v == b;
