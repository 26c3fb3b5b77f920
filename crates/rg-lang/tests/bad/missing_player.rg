// expect 1:1: expected the required `type Player = {...};`
type Score = {0};
begin, end: player = keeper;
