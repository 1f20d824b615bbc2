-- Shared by the Neovim scripts of NeovimTests.swift: the output log, Neovim's built-in LSP client
-- running `reswatch lsp` on RW_ROOT, the file RW_OPEN opened and attached, and the findings of a
-- file as the editor holds them. Returns { log, client_id, findings, finish }.
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
vim.cmd("edit " .. vim.fn.fnameescape(vim.env.RW_OPEN))
vim.lsp.buf_attach_client(0, client_id)

local function findings(path)
  local buf = vim.fn.bufnr(path)
  if buf == -1 then return {} end
  return vim.diagnostic.get(buf)
end

-- Stops the client, says "done" and quits.
local function finish()
  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
  log("done")
  out:close()
  vim.cmd("qa!")
end

return { log = log, client_id = client_id, findings = findings, finish = finish }
