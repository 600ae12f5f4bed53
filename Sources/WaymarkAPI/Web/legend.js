// The map's legend: what the region state colours mean. (Issue 42: to be written.)
