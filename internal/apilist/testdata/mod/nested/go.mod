module example.invalid/nested

go 1.26
