// expect 6:13: expected a map to access
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
var v: {a} = a;
begin, end: v[a] == a;
