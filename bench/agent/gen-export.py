#!/usr/bin/env python3
"""Writes an Apple Health export.xml of a given size, streaming (constant memory), for the agent benchmarks.

    bench/agent/gen-export.py 1G export.xml        # about 1 GiB
    bench/agent/gen-export.py 20M export.xml       # a quick check

Records, as the Health app writes them (one per line, with sourceVersion, device, creationDate), in a fixed
mix: step counts without sync metadata (70 %), heart rates with a metadata entry (20 %), body masses with
HKMetadataKeySyncIdentifier/Version (5 %), sleep analysis (3 %) and a type CareSync does not know (2 %);
every 10,000th record a Correlation and a Workout, which the importer skips. Start times advance one minute
per record from 2015-01-01, so every record is a distinct sample. Prints the record count.
"""
import datetime
import sys

UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
DEVICE = ('&lt;&lt;HKDevice: 0x283c6a0d0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, '
          'hardware:Watch6,1, software:8.5&gt;')


def size(text):
    """'1G' -> bytes."""
    return int(float(text[:-1]) * UNITS[text[-1].upper()]) if text[-1].upper() in UNITS else int(text)


def record(i, when):
    """The i-th record's XML (a line or a few)."""
    start = when.strftime("%Y-%m-%d %H:%M:%S -0700")
    end = (when + datetime.timedelta(seconds=30)).strftime("%Y-%m-%d %H:%M:%S -0700")
    common = f'creationDate="{end}" startDate="{start}" endDate="{end}"'
    kind = i % 100
    if kind < 70:
        return (f' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Alice’s Apple Watch" sourceVersion="8.5" '
                f'device="{DEVICE}" unit="count" {common} value="{20 + i % 120}"/>\n')
    if kind < 90:
        return (f' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Alice’s Apple Watch" sourceVersion="8.5" '
                f'device="{DEVICE}" unit="count/min" {common} value="{55 + i % 60}">\n'
                f'  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="{i % 3}"/>\n </Record>\n')
    if kind < 95:
        return (f' <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" sourceVersion="2" unit="kg" {common} '
                f'value="{70 + (i % 50) / 10}">\n'
                f'  <MetadataEntry key="HKMetadataKeySyncIdentifier" value="scale-{i}"/>\n'
                f'  <MetadataEntry key="HKMetadataKeySyncVersion" value="1"/>\n </Record>\n')
    if kind < 98:
        return (f' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Alice’s Apple Watch" sourceVersion="8.5" '
                f'{common} value="HKCategoryValueSleepAnalysisAsleepCore"/>\n')
    return (f' <Record type="HKQuantityTypeIdentifierMadeUpThing" sourceName="Lab" unit="count" {common} value="{i}"/>\n')


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    target, path = size(sys.argv[1]), sys.argv[2]
    when = datetime.datetime(2015, 1, 1)
    minute = datetime.timedelta(minutes=1)
    written = records = 0
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as out:
        head = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout)*)>\n]>\n'
                '<HealthData locale="en_US">\n <ExportDate value="2024-01-01 10:00:00 -0700"/>\n'
                ' <Me HKCharacteristicTypeIdentifierDateOfBirth="1960-01-01"/>\n')
        out.write(head)
        written += len(head.encode())
        while written < target:
            text = record(records, when)
            if records % 10_000 == 9_999:
                start = when.strftime("%Y-%m-%d %H:%M:%S -0700")
                text += (f' <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="{start}" endDate="{start}">\n'
                         f'  <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="{start}" endDate="{start}" value="120"/>\n'
                         f' </Correlation>\n'
                         f' <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" startDate="{start}" endDate="{start}"/>\n')
            out.write(text)
            written += len(text.encode())
            records += 1
            when += minute
        out.write("</HealthData>\n")
    print(records)


if __name__ == "__main__":
    main()
