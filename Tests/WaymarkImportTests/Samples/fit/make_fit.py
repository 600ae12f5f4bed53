#!/usr/bin/env python3
"""Makes the FIT samples the FIT reader's tests read (run from this folder; needs `pip install fit-tool`).

activity.fit  -- written by fit-tool (an independent FIT writer): file_id, a timer event, and
                 ten record messages on a ride along the Limmat in Zürich, one without a position.
features.fit  -- written byte by byte below to cover what fit-tool does not write: two chained
                 FIT files, the first with a 12-byte header and a big-endian definition, the
                 second with a developer field, compressed timestamp headers (with a rollover),
                 enhanced altitude and speed, and invalid markers.
"""
import struct

from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.profile.messages.event_message import EventMessage
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.profile_type import Event, EventType, FileType, Manufacturer

START_MS = 1_700_000_000_000  # 2023-11-14T22:13:20Z
FIT_EPOCH = 631_065_600


def activity():
    builder = FitFileBuilder(auto_define=True, min_string_size=50)
    file_id = FileIdMessage()
    file_id.type = FileType.ACTIVITY
    file_id.manufacturer = Manufacturer.GARMIN.value
    file_id.product = 0
    file_id.time_created = START_MS
    file_id.serial_number = 0x12345678
    builder.add(file_id)
    event = EventMessage()
    event.event = Event.TIMER
    event.event_type = EventType.START
    event.timestamp = START_MS
    builder.add(event)
    for index in range(10):
        record = RecordMessage()
        record.timestamp = START_MS + index * 5000
        if index != 4:  # a record without a position (a moment without satellites)
            record.position_lat = 47.3769 + index * 0.0005
            record.position_long = 8.5417 + index * 0.0007
        record.altitude = 408.0 + index * 0.4
        record.speed = 5.25 + index * 0.1
        record.heart_rate = 120 + index
        builder.add(record)
    event = EventMessage()
    event.event = Event.TIMER
    event.event_type = EventType.STOP
    event.timestamp = START_MS + 50_000
    builder.add(event)
    return builder.build().to_bytes()


def crc16(data, crc=0):
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def fit_file(messages, header_size):
    data = b"".join(messages)
    header = struct.pack("<BBHI4s", header_size, 0x20, 2132, len(data), b".FIT")
    if header_size == 14:
        header += struct.pack("<H", crc16(header))
    body = header + data
    return body + struct.pack("<H", crc16(body))


def semicircles(degrees):
    return round(degrees * 2**31 / 180)


def features():
    t0 = START_MS // 1000 - FIT_EPOCH
    # First file: 12-byte header; records defined big-endian (architecture 1).
    first = [
        # definition, local 0: file_id (global 0): type (enum).
        bytes([0x40, 0, 0]) + struct.pack("<HB", 0, 1) + bytes([0, 1, 0x00]),
        bytes([0x00, 4]),
        # definition, local 1, big-endian: record: timestamp, lat, long, altitude (uint16), speed (uint16).
        bytes([0x41, 0, 1]) + struct.pack(">HB", 20, 5)
        + bytes([253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 2, 2, 0x84, 6, 2, 0x84]),
        bytes([0x01]) + struct.pack(">IiiHH", t0 + 100, semicircles(51.5007), semicircles(-0.1246), (35 + 500) * 5, 1500),
        # invalid altitude and speed markers
        bytes([0x01]) + struct.pack(">IiiHH", t0 + 101, semicircles(51.5008), semicircles(-0.1247), 0xFFFF, 0xFFFF),
        # invalid position marker: skipped
        bytes([0x01]) + struct.pack(">IiiHH", t0 + 102, 0x7FFFFFFF, 0x7FFFFFFF, (36 + 500) * 5, 1600),
    ]
    # Second file: 14-byte header with CRC; a developer field; compressed timestamps.
    second = [
        # developer_data_id (global 207): developer_data_index (field 3, uint8).
        bytes([0x40, 0, 0]) + struct.pack("<HB", 207, 1) + bytes([3, 1, 0x02]),
        bytes([0x00, 0]),
        # field_description (206): developer_data_index (0), field_definition_number (1), fit_base_type_id (2).
        bytes([0x41, 0, 0]) + struct.pack("<HB", 206, 3) + bytes([0, 1, 0x02, 1, 1, 0x02, 2, 1, 0x02]),
        bytes([0x01, 0, 0, 0x84]),
        # definition, local 2, with developer data: record: timestamp, lat, long, enhanced_altitude
        # (uint32), enhanced_speed (uint32); developer field 0 of developer 0, 2 bytes.
        bytes([0x62, 0, 0]) + struct.pack("<HB", 20, 5)
        + bytes([253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 78, 4, 0x86, 73, 4, 0x86])
        + bytes([1, 0, 2, 0]),
        bytes([0x02]) + struct.pack("<IiiIIH", t0 + 0x3E, semicircles(-33.8568), semicircles(151.2153), (12 + 500) * 5, 2750, 77),
        # definition, local 3: record without timestamp, for compressed timestamp headers.
        bytes([0x43, 0, 0]) + struct.pack("<HB", 20, 3) + bytes([0, 4, 0x85, 1, 4, 0x85, 78, 4, 0x86]),
    ]
    last = t0 + 0x3E
    for step, (lat, lon, alt) in enumerate([(-33.8569, 151.2154, 13.2), (-33.8570, 151.2155, 14.4)]):
        last += 1  # the second one's low five bits roll over from 0x1F to 0x00
        second.append(bytes([0x80 | 3 << 5 | (last & 0x1F)]) + struct.pack("<iiI", semicircles(lat), semicircles(lon), round((alt + 500) * 5)))
    return fit_file(first, 12) + fit_file(second, 14)


if __name__ == "__main__":
    with open("activity.fit", "wb") as out:
        out.write(activity())
    with open("features.fit", "wb") as out:
        out.write(features())
