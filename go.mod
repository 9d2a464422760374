module github.com/mcpwire/mcpwire

go 1.26
