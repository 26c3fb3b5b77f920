// expect 1:1: expected the required `type Score = {...};`
type Player = {x};
begin, end: player = keeper;
