// expect 5:25: found the key `z`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
const c: {a} -> {b} = { z: b, :b };
