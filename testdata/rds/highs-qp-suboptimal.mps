NAME          rds-rhc-t0
ROWS
 N  obj
 L  capacity[0]
 L  capacity[1]
 L  capacity[2]
COLUMNS
    um[j0,0]     obj          -0.125
    um[j0,0]     capacity[0]  1
    ur[j0,0]     capacity[0]  1
    um[j0,1]     capacity[1]  1
    ur[j0,1]     capacity[1]  1
    um[j0,2]     capacity[2]  1
    ur[j0,2]     capacity[2]  1
    um[j2,0]     obj          -55040.44758064517
    um[j2,0]     capacity[0]  1
    ur[j2,0]     capacity[0]  1
    um[j2,1]     obj          -49395.161290322576
    um[j2,1]     capacity[1]  1
    ur[j2,1]     capacity[1]  1
    um[j2,2]     obj          -59274.1935483871
    um[j2,2]     capacity[2]  1
    ur[j2,2]     capacity[2]  1
RHS
    RHS          obj          -38871.30424037461
    RHS          capacity[0]  0.75
    RHS          capacity[1]  1
    RHS          capacity[2]  0.75
BOUNDS
 UP BND       um[j0,0]     1
 FX BND       ur[j0,0]     0
 UP BND       um[j0,1]     1
 FX BND       ur[j0,1]     0
 UP BND       um[j0,2]     1
 FX BND       ur[j0,2]     0
 UP BND       um[j2,0]     1
 FX BND       ur[j2,0]     0
 UP BND       um[j2,1]     1
 FX BND       ur[j2,1]     0
 UP BND       um[j2,2]     1
 FX BND       ur[j2,2]     0
QUADOBJ
    um[j0,0]     um[j0,0]     0.25
    um[j0,0]     um[j0,1]     -0.125
    ur[j0,0]     ur[j0,0]     4
    um[j0,1]     um[j0,1]     0.25
    um[j0,1]     um[j0,2]     -0.125
    ur[j0,1]     ur[j0,1]     4
    um[j0,2]     um[j0,2]     0.125
    ur[j0,2]     ur[j0,2]     2
    um[j2,0]     um[j2,0]     49597.02419354839
    um[j2,0]     um[j2,1]     37096.64919354839
    um[j2,0]     um[j2,2]     36693.54838709677
    ur[j2,0]     ur[j2,0]     4
    um[j2,1]     um[j2,1]     37097.02419354839
    um[j2,1]     um[j2,2]     36693.42338709677
    ur[j2,1]     ur[j2,1]     4
    um[j2,2]     um[j2,2]     60887.221774193546
    ur[j2,2]     ur[j2,2]     2
ENDATA
