// expect 6:16: expected a variable of a set type
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
var m: {a} -> {b} = { :b };
begin, end: $$ m;
