NAME          rds-rhc-t0
ROWS
 N  obj
 G  deadline[a]
 L  capacity[0]
 L  capacity[1]
 L  capacity[2]
COLUMNS
    um[a,0]      obj          -6002
    um[a,0]      deadline[a]  50
    um[a,0]      capacity[0]  1
    ur[a,0]      obj          -2
    ur[a,0]      capacity[0]  1
    um[a,1]      obj          -4000
    um[a,1]      deadline[a]  50
    um[a,1]      capacity[1]  1
    ur[a,1]      capacity[1]  1
    um[a,2]      deadline[a]  25
    um[a,2]      capacity[2]  1
    ur[a,2]      capacity[2]  1
RHS
    RHS          obj          -2002
    RHS          deadline[a]  37.50152487890625
    RHS          capacity[0]  0.5
    RHS          capacity[1]  0.25
    RHS          capacity[2]  6.103515625e-05
BOUNDS
 UP BND       um[a,0]      1
 FX BND       ur[a,0]      0
 UP BND       um[a,1]      1
 FX BND       ur[a,1]      0
 UP BND       um[a,2]      1
 FX BND       ur[a,2]      0
QUADOBJ
    um[a,0]      um[a,0]      10004
    um[a,0]      um[a,1]      4998
    ur[a,0]      ur[a,0]      4
    ur[a,0]      ur[a,1]      -2
    um[a,1]      um[a,1]      5004
    um[a,1]      um[a,2]      -2
    ur[a,1]      ur[a,1]      4
    ur[a,1]      ur[a,2]      -2
    um[a,2]      um[a,2]      2
    ur[a,2]      ur[a,2]      2
ENDATA
