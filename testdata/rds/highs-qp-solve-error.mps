NAME          rds-rhc-t0
ROWS
 N  obj
 G  deadline[j2]
 G  deadline[j4]
 L  capacity[0]
 L  capacity[1]
 L  capacity[2]
COLUMNS
    um[j2,0]      obj           -2
    um[j2,0]      capacity[0]   1
    ur[j2,0]      obj           -5002
    ur[j2,0]      deadline[j2]  50
    ur[j2,0]      capacity[0]   1
    um[j2,1]      capacity[1]   1
    ur[j2,1]      capacity[1]   1
    um[j2,2]      capacity[2]   1
    ur[j2,2]      capacity[2]   1
    um[j4,0]      obj           -2
    um[j4,0]      capacity[0]   1
    ur[j4,0]      obj           -2502.07629627369
    ur[j4,0]      deadline[j4]  50
    ur[j4,0]      capacity[0]   1
    um[j4,1]      capacity[1]   1
    ur[j4,1]      deadline[j4]  49.9969482421875
    ur[j4,1]      capacity[1]   1
    um[j4,2]      capacity[2]   1
    ur[j4,2]      capacity[2]   1
RHS
    RHS           obj           -3129.038148718957
    RHS           deadline[j2]  49.9959482421875
    RHS           deadline[j4]  49.999
    RHS           capacity[0]   1
    RHS           capacity[1]   1
BOUNDS
 FX BND       um[j2,0]      0
 UP BND       ur[j2,0]      1
 FX BND       um[j2,1]      0
 UP BND       ur[j2,1]      1
 FX BND       um[j2,2]      0
 UP BND       ur[j2,2]      1
 FX BND       um[j4,0]      0
 UP BND       ur[j4,0]      1
 FX BND       um[j4,1]      0
 UP BND       ur[j4,1]      1
 FX BND       um[j4,2]      0
 UP BND       ur[j4,2]      1
QUADOBJ
    um[j2,0]      um[j2,0]      4
    um[j2,0]      um[j2,1]      -2
    ur[j2,0]      ur[j2,0]      5004
    ur[j2,0]      ur[j2,1]      -2
    um[j2,1]      um[j2,1]      4
    um[j2,1]      um[j2,2]      -2
    ur[j2,1]      ur[j2,1]      4
    ur[j2,1]      ur[j2,2]      -2
    um[j2,2]      um[j2,2]      2
    ur[j2,2]      ur[j2,2]      2
    um[j4,0]      um[j4,0]      4
    um[j4,0]      um[j4,1]      -2
    ur[j4,0]      ur[j4,0]      5004
    ur[j4,0]      ur[j4,1]      -2
    um[j4,1]      um[j4,1]      4
    um[j4,1]      um[j4,2]      -2
    ur[j4,1]      ur[j4,1]      4
    ur[j4,1]      ur[j4,2]      -2
    um[j4,2]      um[j4,2]      2
    ur[j4,2]      ur[j4,2]      2
ENDATA
