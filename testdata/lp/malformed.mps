* A malformed file: the bound type on line 14 does not exist.
NAME          malformed
ROWS
 N  cost
 L  c
COLUMNS
    x         cost      1              c         1
    y         cost      2              c         1
RHS
    RHS       c         4
BOUNDS
 UP BND       x         3
 LO BND       y         1
 XX BND       y         2
ENDATA
