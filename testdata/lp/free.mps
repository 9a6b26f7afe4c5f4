* Free variables, one negative at the optimum, and an objective constant.
*
*   minimize   x + 3y + 5
*   subject to c1:   x + y >= 2
*              c2:  -x + y >= -4
*              x, y free
*
* The RHS of the objective row is minus the constant: RHS cost -5 means + 5.
* Optimum x = 3, y = -1, objective 3 - 3 + 5 = 5 (both rows tight).
* Proof: duals y1 = 2, y2 = 1 (>= 0: lower bounds in a minimisation) satisfy
* (1, 3) = 2*(1, 1) + 1*(-1, 1) with no bound multipliers (the columns are free);
* the dual bound 2*2 + (-4)*1 + 5 = 5 equals the primal objective.
NAME          free
ROWS
 N  cost
 G  c1
 G  c2
COLUMNS
    x         cost      1              c1        1
    x         c2        -1
    y         cost      3              c1        1
    y         c2        1
RHS
    RHS       cost      -5
    RHS       c1        2              c2        -4
BOUNDS
 FR BND       x
 FR BND       y
ENDATA
