// expect 5:8: expected a node, found `;`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
@unique;
