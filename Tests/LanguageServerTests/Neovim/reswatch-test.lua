-- Driven by NeovimTests.swift: Neovim's built-in LSP client (0.7 and later) runs `reswatch lsp`
-- on a copy of Examples/SampleApp, and this script writes what the editor received to RW_OUT.
local out = io.open(vim.env.RW_OUT, "w")
local function log(line)
  out:write(line .. "\n")
  out:flush()
end

local client_id = vim.lsp.start_client({
  name = "reswatch",
  cmd = { vim.env.RW_BIN, "lsp", "--socket", vim.env.RW_SOCKET },
  root_dir = vim.env.RW_ROOT,
  workspace_folders = { { uri = vim.uri_from_fname(vim.env.RW_ROOT), name = "SampleApp" } },
})
-- Open one file of the project (the findings below are on other files, never opened).
vim.cmd("edit " .. vim.fn.fnameescape(vim.env.RW_OPEN))
vim.lsp.buf_attach_client(0, client_id)

local function findings(path)
  local buf = vim.fn.bufnr(path)
  if buf == -1 then return {} end
  return vim.diagnostic.get(buf)
end

local broken = vim.env.RW_BROKEN
local expected = tonumber(vim.env.RW_EXPECTED)
-- Files are published one by one: wait for all of them, not only the broken icon's.
local received = vim.wait(20000, function() return #findings(broken) > 0 and #vim.diagnostic.get() >= expected end, 50)
log("received " .. tostring(received))
for _, d in ipairs(findings(broken)) do
  local lsp = (d.user_data or {}).lsp or {}
  log("diagnostic " .. tostring(d.code or lsp.code) .. " severity=" .. d.severity .. " source=" .. tostring(d.source))
end
log("total " .. #vim.diagnostic.get())
log("ready")

local cleared = vim.wait(30000, function() return #findings(broken) == 0 end, 50)
log("cleared " .. tostring(cleared))
log("total " .. #vim.diagnostic.get())
vim.lsp.stop_client(client_id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
log("done")
out:close()
vim.cmd("qa!")
