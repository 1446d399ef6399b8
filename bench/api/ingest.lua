-- wrk script: POST batches of $BATCH samples (default 500) to $TARGET_PATH with $AUTH, each request
-- carrying new samples (one a minute, moving forward in time, never repeated), as a device uploading
-- what it recorded since its last push does. FORMAT=kinto wraps the same samples in Kinto's /batch.
-- STRETCH shifts the threads' stretches of time, so two wrk processes at once post different samples.
local batch = tonumber(os.getenv("BATCH") or "500")
local kinto = os.getenv("FORMAT") == "kinto"
local records = os.getenv("KINTO_RECORDS") or "/buckets/bench/collections/ingest/records"
local threads = tonumber(os.getenv("STRETCH") or "0")
wrk.method = "POST"
wrk.path = os.getenv("TARGET_PATH")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = os.getenv("AUTH")

function setup(thread)
  thread:set("first", threads)
  threads = threads + 1
end

local counter = 0
function init(args)
  counter = first * 5000000  -- each wrk thread its own stretch of time (5M minutes, ~9.5 years)
end

local base = 1577836800  -- 2020-01-01T00:00:00Z
function request()
  local parts = {}
  for i = 1, batch do
    local t = base + (counter + i) * 60
    local sample = string.format(
      '{"type":"stepCount","value":%d,"unit":"count","start":"%s","end":"%s","metadata":{"wasUserEntered":false}}',
      40 + (counter + i) % 60, os.date("!%Y-%m-%dT%H:%M:%SZ", t), os.date("!%Y-%m-%dT%H:%M:%SZ", t + 30))
    parts[i] = kinto and ('{"body":{"data":' .. sample .. '}}') or sample
  end
  counter = counter + batch
  local body
  if kinto then
    body = '{"defaults":{"method":"POST","path":"' .. records .. '"},"requests":[' .. table.concat(parts, ",") .. ']}'
  else
    body = '{"samples":[' .. table.concat(parts, ",") .. ']}'
  end
  return wrk.format(nil, nil, nil, body)
end
