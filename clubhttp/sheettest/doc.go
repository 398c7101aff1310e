// Package sheettest prints the club's paper for the evening with real
// Chromium: the wall sheet of a season's standings (clubhttp's
// /host/clubs/{club}/seasons/{season}/wall) must fit one A4 page in
// Georgian, English and Russian. It holds tests only.
package sheettest
