"""wrk's Lua for OwnTracks phones (http_ingest.py, fleet_ingest.py): each request from the next
device in turn (Bearer SECRET from $BENCH_SECRETS, one per line, device dN on line N+1), with
$BENCH_BATCH locations whose `tst` follow on one second apart per device from $BENCH_START."""

LUA = r"""
local devices = {}
local n = 0
local counter = 0
local batch = tonumber(os.getenv("BENCH_BATCH"))
local start = tonumber(os.getenv("BENCH_START"))
function init(args)
  for line in io.lines(os.getenv("BENCH_SECRETS")) do
    n = n + 1
    devices[n] = "Bearer " .. line
  end
end
function request()
  local i = counter % n
  local round = math.floor(counter / n)
  counter = counter + 1
  local bodies = {}
  for b = 0, batch - 1 do
    local t = start + (round * batch + b)
    local lat = 47.35 + (i % 100) * 0.001 + ((round * batch + b) % 600) * 0.00001
    bodies[#bodies + 1] = string.format('{"_type":"location","lat":%.6f,"lon":8.67,"tst":%d,"acc":5,"vel":3,"batt":90,"t":"u"}', lat, t)
  end
  local body = batch == 1 and bodies[1] or ("[" .. table.concat(bodies, ",") .. "]")
  return wrk.format("POST", "/v1/owntracks", {["Authorization"] = devices[i + 1], ["Content-Type"] = "application/json", ["X-Limit-D"] = "d" .. i}, body)
end
"""
