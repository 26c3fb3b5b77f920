// expect 5:23: expected a default value (`:value`) in the map
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
const c: {a} -> {b} = { a: b };
