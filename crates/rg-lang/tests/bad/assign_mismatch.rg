// expect 6:17: expected a value assignable to type {a}
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
var v: {a} = a;
begin, end: v = b;
