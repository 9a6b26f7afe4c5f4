* An unbounded LP.
*
*   maximize   x + y
*   subject to c:  x - y <= 1
*              x, y >= 0
*
* Proof: (0, 0) is feasible and the ray (1, 1) keeps x - y = 0 <= 1 and x, y >= 0
* while the objective grows by 2 per unit step.
NAME          unbounded
OBJSENSE MAX
ROWS
 N  obj
 L  c
COLUMNS
    x         obj       1              c         1
    y         obj       1              c         -1
RHS
    RHS       c         1
ENDATA
