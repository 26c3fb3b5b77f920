// expect 5:36: found a second `:`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
const c: {a} -> {b} = { :b, a: b, :b };
