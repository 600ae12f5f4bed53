// A device's trail on the live map: its last minutes, fading with age. (Issue 42: to be written.)
