/// The fixed parts of the HTML report: its head (a policy that lets the page load nothing from
/// anywhere: pictures only from data: URIs), its style (light and dark schemes follow the
/// system; transparency on a checkerboard) and its script (filters; marks a picture the browser
/// cannot decode). The page reads the same without the script.
enum HTMLAssets {
    static let head = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <meta name="color-scheme" content="light dark">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>reswatch check</title>
        <style>
        :root{--bg:#fff;--fg:#1d1d1f;--muted:#6e6e73;--line:#d2d2d7;--card:#f5f5f7;--error:#c9190b;--warning:#b25000;--info:#0a60c2;--c1:#fff;--c2:#d8d8d8}
        @media (prefers-color-scheme: dark){:root{--bg:#1c1c1e;--fg:#f2f2f7;--muted:#a1a1a6;--line:#3a3a3c;--card:#2c2c2e;--error:#ff6961;--warning:#ffb340;--info:#64a8ff;--c1:#444;--c2:#2a2a2a}}
        body{font:14px/1.45 system-ui,sans-serif;background:var(--bg);color:var(--fg);margin:0 2em 3em}
        h1{font-size:1.4em}h2{border-bottom:1px solid var(--line);padding-top:.6em}h3 small,.note,.context{color:var(--muted)}
        code{font-size:.92em}
        .grid{display:flex;flex-wrap:wrap;align-items:flex-start;gap:12px;margin:.6em 0 1.2em}
        .slot{margin:0;width:132px;padding:8px;border:1px solid var(--line);border-radius:10px;background:var(--card);font-size:12px;overflow-wrap:anywhere}
        .slot.store{width:196px}.slot.error{border:2px solid var(--error)}.slot.warning{border:2px solid var(--warning)}
        .thumb,.hole{display:block;position:relative;width:64px;height:64px;margin:0 auto 6px}
        .store .thumb,.store .hole{width:160px;height:160px}
        .thumb.transparent{background:repeating-conic-gradient(var(--c2) 0 25%,var(--c1) 0 50%) 0 0/12px 12px}
        .pic,.mask{position:absolute;inset:0;background-size:contain;background-repeat:no-repeat;background-position:center}
        .mask{opacity:.8}
        .hole{border:2px dashed var(--error);border-radius:8px;color:var(--error);font-size:11px;display:flex;align-items:center;justify-content:center;text-align:center;box-sizing:border-box;padding:4px}
        .hole.empty{border-color:var(--line);color:var(--muted)}
        .broken{outline:3px solid var(--error)}
        .findings{padding-left:1.2em}.slot .findings{padding-left:1em;margin:.4em 0 0}
        .sev{font-weight:600;text-transform:uppercase;font-size:.78em}.sev.error{color:var(--error)}.sev.warning{color:var(--warning)}.sev.info{color:var(--info)}
        .itms{color:var(--muted)}.fix{color:var(--muted)}
        a{color:var(--info)}
        #filters{margin:.5em 0}

        """

    /// Filters by severity and rule, and a check that every picture decodes: a broken one is
    /// outlined, and `data-images` on the body says how many decoded (the browser test reads it).
    static let script = """
        (function(){
        var form=document.getElementById('filters');form.hidden=false;
        function apply(){var shown={};form.querySelectorAll('input').forEach(function(c){shown[c.value]=c.checked});
        var rule=document.getElementById('rule').value;
        document.querySelectorAll('li.finding').forEach(function(li){li.hidden=!(shown[li.dataset.severity]&&(rule===''||li.dataset.rule===rule))});}
        form.addEventListener('change',apply);
        })();

        """ + pictureCheck

    /// Marks a picture the browser cannot decode, and says on the body how many decoded.
    static let pictureCheck = """
        (function(){
        var pictures=[];
        for(var s of document.styleSheets){for(var r of s.cssRules){var b=r.style&&r.style.backgroundImage;if(b&&b.indexOf('url(')===0){pictures.push([r.selectorText,b.slice(5,-2)])}}}
        var done=0,broken=[];
        function finish(){if(++done<pictures.length)return;
        document.body.dataset.images=(pictures.length-broken.length)+' of '+pictures.length+' decoded';
        broken.forEach(function(sel){document.querySelectorAll(sel).forEach(function(e){e.classList.add('broken')})});}
        if(!pictures.length){document.body.dataset.images='0 of 0 decoded'}
        pictures.forEach(function(p){var i=new Image();i.onload=function(){if(!i.naturalWidth)broken.push(p[0]);finish()};i.onerror=function(){broken.push(p[0]);finish()};i.src=p[1]});
        })();
        """
}
