// expect 5:16: found a map
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
const c: {a} = { :a };
