// expect 5:1: expected a declaration, an edge or a pragma, found `{`
type Player = {x, y};
type Score = {0, 1};
begin, end: player = keeper;
{
