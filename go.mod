module mafia

go 1.26.8
