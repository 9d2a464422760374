module example.invalid/mod

go 1.26
