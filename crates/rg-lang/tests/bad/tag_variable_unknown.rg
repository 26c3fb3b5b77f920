// expect 5:16: expected a variable after `$$`, found `v`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
begin, end: $$ v;
