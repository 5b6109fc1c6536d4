package judge
