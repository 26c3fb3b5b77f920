// expect 6:1: expected `;` at the end of the type definition
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
type T = {a}
var v: T = a;
