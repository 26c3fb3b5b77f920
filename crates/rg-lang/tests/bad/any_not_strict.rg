// expect 7:17: expected a set type whose every symbol fits
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a, b};
var v: {a} = a;
begin, end: v = T(*);
