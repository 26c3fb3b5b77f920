// expect 5:33: expected a default value
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
const c: {a} -> {b} -> {c} = { :{ b: c } };
