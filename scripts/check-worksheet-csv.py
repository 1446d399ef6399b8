#!/usr/bin/env python3
"""Checks a worksheet's CSV against its JSON: Python's csv module reads the same figures.

Usage: check-worksheet-csv.py WORKSHEET.json WORKSHEET.csv. Exits 1 naming the first difference.
A cell the server neutralised (a leading ' before = + - @ tab or CR) is read back without the quote.
"""
import csv
import json
import sys


def plain(cell):
    return cell[1:] if len(cell) > 1 and cell[0] == "'" and cell[1] in "=+-@\t\r" else cell


def main(json_path, csv_path):
    sheet = json.load(open(json_path, encoding="utf-8"))
    with open(csv_path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    expected = []
    for p in sheet["patients"]:
        minutes = (str(p["minutes"]["total"]), p["minutes"]["band"], p["leftTeamOn"] or "")
        periods = p["periods"] or [None]
        for period in periods:
            cells = ("", "", "", "", "", "") if period is None else (
                str(period["episode"]), str(period["number"]), period["firstDay"], period["endDay"], period["state"],
                str(period["daysWithData"]))
            expected.append((p["patient"], sheet["month"]) + cells + minutes)
    got = [tuple(plain(r[k]) for k in ("patient", "month", "episode", "period", "period_first_day", "period_end_day",
                                       "period_state", "days_with_data", "month_minutes", "minutes_band", "left_team_on"))
           for r in rows]
    if got != expected:
        print("CSV differs from JSON:\n csv:  %r\n json: %r" % (got, expected))
        return 1
    print("worksheet CSV matches JSON: %d rows" % len(got))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
