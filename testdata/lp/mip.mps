* A small MIP (a solver without MIP support refuses it: exit 2, with the reason).
*
*   maximize   5x + 4y
*   subject to c:  6x + 4y <= 24,   x, y integer in [0, 10]
*
* Optimum x = 0, y = 6, objective 24.
* Proof: with the row multiplier 1, 5x + 4y <= 6x + 4y <= 24 for every x >= 0, so 24
* bounds even the LP relaxation, and the integer point (0, 6) attains it.
NAME          mip
OBJSENSE
    MAX
ROWS
 N  obj
 L  c
COLUMNS
    MARKER    'MARKER'  'INTORG'
    x         obj       5              c         6
    y         obj       4              c         4
    MARKER    'MARKER'  'INTEND'
RHS
    RHS       c         24
BOUNDS
 UP BND       x         10
 UP BND       y         10
ENDATA
