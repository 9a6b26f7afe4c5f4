* Fixed MPS with spaces in names (read with --format fixed-mps or auto).
*
*   minimize   2 a + 3 b          (columns "COL A" and "COL B")
*   subject to "NEED 1":  a + b >= 4
*              "NEED 2":  a - b <= 2
*              0 <= a <= 10,  b >= 0
*
* Optimum a = 3, b = 1, objective 9 (both rows tight).
* Proof: duals y1 = 2.5 (>= 0) and y2 = -0.5 (<= 0) satisfy
* (2, 3) = 2.5*(1, 1) - 0.5*(1, -1); the dual bound 4*2.5 + 2*(-0.5) = 9.
NAME          FIXED
ROWS
 N  COST
 G  NEED 1
 L  NEED 2
COLUMNS
    COL A     COST      2              NEED 1    1
    COL A     NEED 2    1
    COL B     COST      3              NEED 1    1
    COL B     NEED 2    -1
RHS
    RHS       NEED 1    4              NEED 2    2
BOUNDS
 UP BND       COL A     10
ENDATA
